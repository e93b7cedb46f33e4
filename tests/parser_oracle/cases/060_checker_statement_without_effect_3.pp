case $facts["a"] { default: {} }
notice(0)
