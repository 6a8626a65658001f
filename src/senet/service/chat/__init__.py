"""Chat between the two players of a game: set phrases, never free text (:mod:`.quick_chat`).

The package's face: the names the rest of the site uses, whichever module defines them.
"""

from .quick_chat import PHRASES, ChatMessage, QuickChat, chat_message, checked_phrase

__all__ = ["ChatMessage", "PHRASES", "QuickChat", "chat_message", "checked_phrase"]
