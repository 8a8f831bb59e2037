"""The referee: the flow and its steps, matches, scoring, disputes, lists, the table, history."""
