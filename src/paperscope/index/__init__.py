"""What search needs that is pure: the query language and indexed text (lexical), the sentence encoder
and vector matrix (semantic), fusing the two lists (fusion), a Chinese query's English (translate).
Nothing here touches a database: the stores run the queries (paperscope.store)."""
