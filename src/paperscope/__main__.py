from paperscope.cli import main

main()
