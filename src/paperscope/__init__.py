"""paperscope: turn a conference's paper list into something a researcher can explore."""

__version__ = "0.1.0"
