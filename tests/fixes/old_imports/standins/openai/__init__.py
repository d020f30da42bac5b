"""A stand-in for the ``openai`` package, which verl's main_generation_server imports at module level
(``from openai.types.chat import ChatCompletion``) and a CPU test environment does not have (vLLM
and SGLang bring it in a GPU one). Enough to import the module; nothing here is called."""
