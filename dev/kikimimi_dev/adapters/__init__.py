"""Local adapters the cloud never ships: the offline model, stand-in writers, usem, the recording Discord."""
