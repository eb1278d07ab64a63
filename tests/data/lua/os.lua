-- Hostile: runs a shell command.
effect{
  name = "shell",
  after = function(pos, move)
    if pos:var(1) == 1 then os.execute("echo pwned") end
    return false
  end,
}
