"""Local stack: the Cloud Tasks stand-in, a gRPC server that the real google-cloud-tasks client talks to."""

from kikimimi_dev.local.cloud_tasks.server import CloudTasksStandIn

__all__ = ["CloudTasksStandIn"]
