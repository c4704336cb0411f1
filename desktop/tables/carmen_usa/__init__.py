"""Where in the USA is Carmen Sandiego at the table (``desktop/tables/carmen_usa``).

- :mod:`.table`    the table: the map page and the Catch Carmen page, what each shows now, the
                   table's own actions (a question drawn, a choice tapped, the reader's answer, the clock)
- :mod:`.board`    the map drawn: the 24 landmark tiles, the question card and its choices, the pile
- :mod:`.finale`   Catch Carmen: the states' map, the countdown ring, the tokens
- :mod:`.mapfile`  where the map puts things (``assets/boards/carmen-usa-map.toml``)
"""

from .mapfile import MapDataError, load_map
from .table import CarmenUsaTable

__all__ = ["CarmenUsaTable", "MapDataError", "load_map"]
