-- Hostile: reads a file.
effect{
  name = "reader",
  after = function(pos, move)
    if pos:var(1) == 1 then return io.open("/etc/passwd") ~= nil end
    return false
  end,
}
