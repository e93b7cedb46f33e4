$s = "${case + 1}"
