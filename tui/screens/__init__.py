"""One screen per mode: lobby, table, results, rules (plus the small dialogs they open)."""
