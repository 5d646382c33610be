"""Tools: the kikimimi CLI and what only it uses; production code never imports them."""
