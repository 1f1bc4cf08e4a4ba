"""Deep Monte-Carlo for 2-player tables: a thin caller of :mod:`durak.learn.dmc2` (its
docstring has the method and the options), kept so the commands in README.md here run::

    nice -n 10 .venv/bin/python benchmarks/rl/dmc.py --cpu-minutes 65 \\
        --eval-every 25000 --eval-deals 100 --save scratch/dmc.pt --curve scratch/dmc_curve.csv
"""

import sys

from durak.learn.dmc2 import main

if __name__ == "__main__":
    main(sys.argv[1:])
