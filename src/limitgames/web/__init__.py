"""The browser app: lobby, live game pages over WebSocket, replays, stored records.

``limit serve`` runs :func:`limitgames.web.app.create_app` under uvicorn. The
web layer drives the engines only through the game protocol; it renders and
transports, it never decides a rule. See ``docs/web.md``.
"""
