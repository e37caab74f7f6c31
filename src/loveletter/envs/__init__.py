"""Research adapters: the game as reinforcement-learning environments.

* :mod:`loveletter.envs.pettingzoo` — a PettingZoo AEC environment, every seat an agent;
* :mod:`loveletter.envs.gymnasium` — a Gymnasium environment, one learning seat against bots
  (importing it registers ``loveletter/LoveLetter-v0``);
* :mod:`loveletter.envs.openspiel` — an OpenSpiel game (importing it registers
  ``python_love_letter``).

They all use the shared action numbering and observation encoding of :mod:`loveletter.encoding`, and
a seat's observation is made from that seat's :class:`~loveletter.engine.View` only (docs/rules.md R7).
This package imports none of those libraries itself: they are optional extras
(``loveletter[pettingzoo]``, ``loveletter[gymnasium]``, ``loveletter[openspiel]``).
"""
