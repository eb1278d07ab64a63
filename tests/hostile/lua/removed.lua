-- Hostile: the removed libraries test_script.c does not try (os, io,
-- require, dofile, loadfile and string.dump are in tests/data/lua), and
-- a raw read of the globals that must find nothing either.
effect{
  name = "removed",
  after = function(pos, move)
    local v = pos:var(1)
    if v == 1 then return package.loaded ~= nil end
    if v == 2 then return debug.sethook() end
    if v == 3 then return coroutine.wrap(print) ~= nil end
    if v == 4 then
      for _, name in ipairs({"os", "io", "package", "debug", "coroutine", "require",
                             "dofile", "loadfile"}) do
        if rawget(_G, name) ~= nil then error("escaped: " .. name) end
      end
      error("nothing reachable")
    end
    return false
  end,
}
