"""Input and validation: the first stage of every public function.

Frames and lazy engines in (``frames``, ``lazy``, ``engine_bins``), parameters and data
columns checked (``validation``, ``intervals``, ``deprecation``, ``data_checks``),
costchart's own tables read back with their recorded kind and grouping (``tables``,
``table_values``, ``kinds``, ``curves``, ``pooling``), rows split into groups
(``groups``), the column names (``schema``) and the errors (``errors``).
"""
