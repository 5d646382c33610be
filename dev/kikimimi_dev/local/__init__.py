"""Local stack: emulators and stand-ins to run everything on one machine; never deployed."""
