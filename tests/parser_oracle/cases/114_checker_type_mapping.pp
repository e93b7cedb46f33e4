type Runtime["ruby", "Foo"] = Integer
type Runtime["ruby", [/x/, "y"]] = Integer
type Runtime["ruby", [/x/, "y"]] = [/a/, "b"]
type Integer[1] = String
