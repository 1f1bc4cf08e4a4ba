"""The terminal game (``durak play``) and the record stepper (``durak replay --step``).

Built with Textual. The modules that hold no screen logic (``i18n``, ``words``,
``picker``, ``session``, ``render``) import no Textual, so they are easy to test.

- :mod:`durak.tui.i18n`: every string of the interface in English and Russian.
- :mod:`durak.tui.words`: moves, turns and results in plain words.
- :mod:`durak.tui.picker`: turns card choices and keys into legal actions only.
- :mod:`durak.tui.session`: a match against bots: pacing-free game logic, undo, records.
- :mod:`durak.tui.render`: cards as coloured, clickable text.
- :mod:`durak.tui.app`: the Textual application; :mod:`durak.tui.replay_app`: the stepper.
"""
