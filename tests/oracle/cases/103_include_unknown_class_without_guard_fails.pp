# Without the defined() guard the include of a class that does not exist fails.
include nosuchclass
notify { 'done': }
