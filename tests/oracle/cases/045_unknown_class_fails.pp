node default { include nosuchclass }
