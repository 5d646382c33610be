"""The Store and Recall ports on Firestore, one module per thing stored (buffer, places, caps, memory,
facts, guilds), the codecs, the paths, the counting and forgetting they share."""

from kikimimi.adapters.firestore.recall import FirestoreRecall
from kikimimi.adapters.firestore.store import FirestoreStore

__all__ = ["FirestoreRecall", "FirestoreStore"]
