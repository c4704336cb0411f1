"""Where in the USA is Carmen Sandiego: rules (:mod:`.rules`), board and question bank (:mod:`.data`),
exact Crook odds (:mod:`.odds`) and the simulated table (:mod:`.sim`)."""

from .rules import ACTIONS, CarmenUsaRules, CarmenUsaState

__all__ = ["ACTIONS", "CarmenUsaRules", "CarmenUsaState"]
