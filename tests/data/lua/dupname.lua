-- The same effect name twice.
effect{name = "twice"}
effect{name = "twice"}
