"""Every baseline against every rung of the bot ladder, on fixed paired deals: a thin
caller of :mod:`durak.learn.evaluate` (its docstring says what is measured)::

    .venv/bin/python benchmarks/rl/evaluate.py --games 200 --slow-games 100 \\
        --players random,learned   # about 1 h of one core, most of it level 5
"""

import numpy as np

from durak.learn.evaluate import main

if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
