"""Domain memory: pure memory policy, ranking, keywords, prompt blocks, schemas and payloads."""
