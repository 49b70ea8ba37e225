"""Names the lower layers call but must not import, since the modules defining them import
those layers: each is set once, by its own module, when that module is imported (rxc's
__init__ imports them all). This keeps the package free of import cycles."""
from typing import Any

Observable: Any = None  # observable.py
GroupedObservable: Any = None  # observable_kinds.py
BoundedObservable: Any = None  # observable_kinds.py
ConnectableObservable: Any = None  # observable_kinds.py
Driver: Any = None  # observable_kinds.py
Signal: Any = None  # observable_kinds.py
Emitter: Any = None  # observable_kinds.py
as_observable: Any = None  # observable.py
amb: Any = None  # creation.py
combine_latest: Any = None  # creation.py
concat: Any = None  # creation.py
merge: Any = None  # creation.py
of: Any = None  # creation.py
zip_: Any = None  # creation.py
aiter: Any = None  # aio.py
