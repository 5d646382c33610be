"""Memory use cases: ingest hook, recall for prompts, summarize, reflect, maintain; ports only."""
