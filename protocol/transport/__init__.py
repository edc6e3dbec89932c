"""The transport: the msgpack-rpc codec, sessions, the trio server with its admission, limits
and budgets, connections, the method table services plug into, and the Python client.

It imports no service (tests/test_import_cycles.py): services (``croupier.protocol.tables``,
``.tournaments``, ``.history``, ...) register their methods on it, and
``croupier.protocol.services`` puts the two together. Below it only the journal
(``croupier.protocol.journal``: what an answer waits for) and the engine. Embedding programs
import from ``croupier.protocol``, not from here.
"""
