"""HexThello over TCP, compatible with the TUC course framework of document 004: the wire protocol, a server
(``HexServer``), an agent (``HexClient``), the SQLite record of games, and a live web viewer."""
