-- Hostile: a finalizer that never ends, left for the collector while the
-- file loads (it would run when the state is closed, with the debug
-- hooks off).  The sandbox's setmetatable refuses it.
setmetatable({}, {__gc = function() while true do end end})
effect{name = "gc-at-load"}
