"""What every event passes before a handler: the socket's front door, the rate limit and shape
check, the admission of several workers, the warm hydrate, the sign-in limit."""
