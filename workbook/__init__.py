"""The clubs' event workbook ("GestioneTorneo" .xls) that organizers upload to the national
ranking: its layout as data (:mod:`.spec`), a neutral cell model (:mod:`.book`), the checks the
ranking pipeline applies (:mod:`.validate`), the event it describes (:mod:`.event`), files in and
out (:mod:`.files`, :mod:`.biff`), and the Django side: export of a tournament
(:mod:`.export`) and import of past events (:mod:`.importer`).

Everything but ``export`` and ``importer`` is pure Python (no ORM).
"""
