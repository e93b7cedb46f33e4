@class { "a": }
@@class { "b": }
