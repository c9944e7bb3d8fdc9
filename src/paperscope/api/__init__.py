"""The JSON API under /api; paperscope.app serves it with the web pages."""
