"""The development package: the `kikimimi` CLI (tools/), the local stack (local/), the in-memory twins
(twins/) and the local adapters (adapters/). Never deployed; it may import kikimimi, and deployed code
(functions/, gateway_vm/) never imports it."""

from kikimimi import bootstrap
from kikimimi_dev.adapters.backends import DevBackends

# Whatever imports the dev package (the CLI, the local stack, tests) may ask for the local backends.
bootstrap.use_local_backends(DevBackends())
