"""What the JSON API (api/) and the web pages (web/) share, so that neither imports the other: the
request's library and reader (shared.py), the filter parameters (params.py), and who may change
data (security.py). paperscope.app composes api/ and web/ into one app."""
