"""Where work runs and what it costs: threads or a Dask cluster, the cache folder, what a first run compiles, `allfours bench`."""
