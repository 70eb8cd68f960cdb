"""Services: authorize → load state → decide → append → publish. The only layer that writes."""
