"""Use cases: what the bot does when an event or a task arrives; they talk only to ports."""
