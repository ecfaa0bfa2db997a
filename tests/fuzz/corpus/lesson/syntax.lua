return {id="x"
, title = "unterminated
