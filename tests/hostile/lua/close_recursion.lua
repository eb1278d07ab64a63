-- Hostile: recursion through a to-be-closed variable whose __close handler
-- recurses again.  Each level the first recursion leaves holds a pending
-- <close> variable; when an error (a stack overflow, then the spent budget)
-- unwinds them, each handler starts the recursion anew, so the handlers run
-- on after the budget is spent unless the error ends them at once.
local function dive(n)
  local guard <close> = setmetatable({}, {__close = function() dive(n + 1) end})
  return dive(n + 1) + 1
end

-- The same through pcall, which a handler may use to keep going.
local function dive_pcall(n)
  local guard <close> = setmetatable({}, {__close = function() pcall(dive_pcall, n + 1) end})
  pcall(dive_pcall, n + 1)
  return dive_pcall(n + 1)
end

effect{
  name = "close-recursion",
  moves = function(pos)
    local v = pos:var(1)
    if v == 1 then
      dive(1)
    elseif v == 2 then
      dive_pcall(1)
    end
  end,
}
