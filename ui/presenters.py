"""The presenters, where they were: they live in :mod:`ui.kivyfree.presenters`,
one module per screen. Kept so imports of ``ui.presenters`` still work: every
name that package exports, and only those."""

from ui.kivyfree.presenters import *  # noqa: F403
from ui.kivyfree.presenters import __all__ as __all__
