-- An effect without a name.
effect{after = function(pos, move) return false end}
