"""The site's routers: pages, the HTTP API and the bot API, one module a domain.

A router imports what the routers share (``senet.web.common``, ``senet.web.deps``, ``senet.web.render``), never another router."""
