"""The development package: the `kikimimi` CLI (tools/), the local stack (local/) and the in-memory twins
(twins/). Never deployed; it may import kikimimi, and deployed code (functions/, gateway_vm/) never
imports it."""
