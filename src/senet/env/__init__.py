"""Senet for reinforcement learning: a PettingZoo environment and a Gymnasium wrapper.

* :mod:`.senet_v0` — the two-player AEC environment, ``senet_v0.env(variant=...)``;
* :mod:`.encoding` — the action numbers and the observation tensor;
* :mod:`.single` — one seat against a built-in level of :mod:`senet.ai`, as a Gymnasium env.

Needs the ``env`` extra (``pip install senet[env]``: pettingzoo and gymnasium).  Documented in
``docs/environment.md``.
"""
