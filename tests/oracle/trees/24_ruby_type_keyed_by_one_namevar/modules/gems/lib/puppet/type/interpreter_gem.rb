# A gem installed once per host: its name alone identifies the resource.
Puppet::Type.newtype(:interpreter_gem) do
  newparam(:name) do
    isnamevar
  end

  newparam(:interpreter)
end
