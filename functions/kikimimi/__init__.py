"""kikimimi. Ground floor: settings, logs, ports, prompts, bootstrap (composition root), entrypoints."""
