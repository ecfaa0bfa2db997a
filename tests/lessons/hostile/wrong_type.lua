-- A lesson file that returns a string instead of a table.
return "not a lesson"
