error("bad \27[31mred\27[0m \r\n line \194\155 csi")
