-- Hostile: runs another file.
effect{
  name = "dofiler",
  after = function(pos, move)
    if pos:var(1) == 1 then dofile("/etc/passwd") end
    if pos:var(1) == 2 then loadfile("/etc/passwd") end
    return false
  end,
}
