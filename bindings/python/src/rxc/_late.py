"""Names the lower layers call but must not import, since the modules defining them import
those layers: each is set once, by its own module, when that module is imported (rxc's
__init__ imports them all). This keeps the package free of import cycles."""
from typing import Any

Observable: Any = None  # observable.py
GroupedObservable: Any = None  # observable.py
BoundedObservable: Any = None  # observable.py
Emitter: Any = None  # observable.py
as_observable: Any = None  # observable.py
amb: Any = None  # creation.py
combine_latest: Any = None  # creation.py
concat: Any = None  # creation.py
merge: Any = None  # creation.py
of: Any = None  # creation.py
zip_: Any = None  # creation.py
aiter: Any = None  # aio.py
