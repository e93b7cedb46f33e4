require 'puppet/parameter/boolean'

# A resource type of the module's own: its attributes are its parameters
# and properties.
Puppet::Type.newtype(:kernel_setting) do
  @doc = 'A kernel setting.'
  ensurable do
    defaultvalues
  end
  newparam(:name, namevar: true) do
    desc 'The setting.'
  end
  newproperty(:val) do
    desc 'Its value.'
  end
  newparam(:persist, boolean: true, parent: Puppet::Parameter::Boolean)
end
