"""What every tournament service does around its change (``change``): lock, log, bump."""
